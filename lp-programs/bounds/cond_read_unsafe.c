// expect: unsafe
// why: for i = -1 the ?: takes its first branch (a[-1] is not evaluated) and x = 9
// expect-bounds-nondet: unsafe
// expect-bounds-error: unsafe
extern int __VERIFIER_nondet_int(void);
int main() {
  int a[3] = {1, 2, 3};
  int i = __VERIFIER_nondet_int();
  int x = i < 0 ? 9 : a[i];
  if (x >= 5) {
  ERROR: ;
  }
  return 0;
}
