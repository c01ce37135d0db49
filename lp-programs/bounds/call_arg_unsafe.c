// expect: unsafe
// why: a[1] is 15, so i = 1 passes 15 to check, in bounds
// expect-bounds-nondet: unsafe
// expect-bounds-error: unsafe
extern int __VERIFIER_nondet_int(void);
void reach_error() {}
void check(int v) {
  if (v >= 10) reach_error();
}
int main() {
  int a[3] = {1, 15, 9};
  int i = __VERIFIER_nondet_int();
  check(a[i]);
  return 0;
}
