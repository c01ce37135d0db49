// expect: unsafe
// why: after a nest that only reads (a global flag kept at 1, an inner loop counting
// down), the count of outer iterations is 50000 and the check wants it below
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int a[50000];
int seen = 1;
int main(void) {
  int i, j, rounds = 0;
  for (i = 0; i < 50000; i++) a[i] = __VERIFIER_nondet_int();
  for (i = 0; i < 50000; i++) {
    for (j = i; j > 0; j--)
      if (a[j - 1] > a[j]) seen = 1;
    rounds++;
  }
  if (seen && rounds >= 50000) reach_error();
  return 0;
}
