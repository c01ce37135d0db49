// expect: unsafe
// why: fill draws 12 values and gives up (returns 0) at the first outside 1..6; its caller
// goes on either way, and reaches the error when fill returned 1 with a total of at least
// 30: every run that draws all 12 inside 1..6 with an average of 2.5 or more
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int total;
int fill(void) {
  for (int i = 0; i < 12; i++) {
    int v = __VERIFIER_nondet_int();
    if (!(1 <= v && v <= 6)) return 0;
    total = total + v;
  }
  return 1;
}
int main(void) {
  int ok = fill();
  if (ok == 1 && total >= 30) reach_error();
  return 0;
}
