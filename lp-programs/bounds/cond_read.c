// expect: safe
// why: a[i] is read only when i >= 0 (the other branch of ?: gives 0), and every cell is below 5; i >= 3 is out of bounds (undefined in C)
// expect-bounds-nondet: unsafe
// expect-bounds-error: bounds
// assumes-in-bounds: 10
extern int __VERIFIER_nondet_int(void);
int main() {
  int a[3] = {1, 2, 3};
  int i = __VERIFIER_nondet_int();
  int x = i < 0 ? 0 : a[i];
  if (x >= 5) {
  ERROR: ;
  }
  return 0;
}
