// expect: safe
// why: the nest compares every pair of 30000 cells (4.5·10^8 iterations); both branches of
// its test set the flag to the 1 it always has, so the nest only counts its rounds, and
// the count is what the check says
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int a[30000];
int main(void) {
  int i, j, r = 1, rounds = 0;
  for (i = 0; i < 30000; i++) a[i] = __VERIFIER_nondet_int();
  for (i = 1; i < 30000 && r == 1; i++) {
    for (j = i - 1; j >= 0; j--) {
      if (a[i] < a[j]) r = 1;
      else r = 1;
    }
    rounds++;
  }
  if (rounds != 29999) reach_error();
  return 0;
}
