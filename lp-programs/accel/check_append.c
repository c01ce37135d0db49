// expect: safe
// why: only positive cells of a are appended to b, at b[m] with m growing from 0, so every
// b[j] with j < m is positive (ACSAR's part_init, with a check of every appended cell)
// open: without --jump-checks the CEGAR engine does not prove it within a minute (the
// widening at the check loop); tests/cegar.rs proves it with the jumps, certificate included
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 100000)
    return 0;
  int a[n];
  int b[n];
  int m = 0;
  for (int i = 0; i < n; i++)
    a[i] = __VERIFIER_nondet_int();
  for (int i = 0; i < n; i++) {
    if (a[i] > 0) {
      b[m] = a[i];
      m++;
    }
  }
  for (int j = 0; j < m; j++)
    __VERIFIER_assert(b[j] > 0);
  return 0;
}
