// expect: safe
// why: a[i] is read only when i >= 0 (&& stops first), and every cell is 0; i >= 4 reads out of bounds (undefined in C)
// expect-bounds-nondet: unsafe
// expect-bounds-error: bounds
// assumes-in-bounds: 10
extern int __VERIFIER_nondet_int(void);
int main() {
  int a[4] = {0, 0, 0, 0};
  int i = __VERIFIER_nondet_int();
  int bad = i >= 0 && a[i] != 0;
  if (bad) {
  ERROR: ;
  }
  return 0;
}
