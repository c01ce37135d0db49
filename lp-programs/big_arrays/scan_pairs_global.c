// expect: safe
// why: the nest runs 50000 outer iterations, and the check wants more
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
  if (seen && rounds > 50000) reach_error();
  return 0;
}
