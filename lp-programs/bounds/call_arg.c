// expect: safe
// why: every cell of a is below 10, so check never fails for a cell in bounds; a[i] at i >= 3 or i < 0 is undefined in C
// expect-bounds-nondet: unsafe
// expect-bounds-error: bounds
// assumes-in-bounds: 14
extern int __VERIFIER_nondet_int(void);
void reach_error() {}
void check(int v) {
  if (v >= 10) reach_error();
}
int main() {
  int a[3] = {1, 5, 9};
  int i = __VERIFIER_nondet_int();
  check(a[i]);
  return 0;
}
