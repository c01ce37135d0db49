// expect: unsafe
// why: for i = -1, && stops before a[-1] (not evaluated, so nothing is undefined) and ok is 0
// expect-bounds-nondet: unsafe
// expect-bounds-error: unsafe
extern int __VERIFIER_nondet_int(void);
int main() {
  int a[4] = {0, 0, 0, 0};
  int i = __VERIFIER_nondet_int();
  int ok = i >= 0 && a[i] == 0;
  if (!ok) {
  ERROR: ;
  }
  return 0;
}
