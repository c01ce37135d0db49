// expect: unsafe
// why: the fill skips cell 77777, so with n > 77777 and j == 77777 the check fails: two
// inputs that the program's constants name
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int a[100000];
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100000) return 0;
  for (int i = 0; i < n; i++) {
    if (i != 77777) a[i] = 42;
  }
  int j = __VERIFIER_nondet_int();
  if (!(0 <= j && j < n)) return 0;
  if (a[j] != 42) reach_error();
  return 0;
}
