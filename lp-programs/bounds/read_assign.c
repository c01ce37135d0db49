// expect: safe
// why: every cell of a is 0 and x is read from a[i]; only an out-of-bounds i (undefined in C) gives x != 0
// expect-bounds-nondet: unsafe
// expect-bounds-error: bounds
// assumes-in-bounds: 10
extern int __VERIFIER_nondet_int(void);
int main() {
  int a[4] = {0, 0, 0, 0};
  int i = __VERIFIER_nondet_int();
  int x = a[i];
  if (x != 0) {
  ERROR: ;
  }
  return 0;
}
