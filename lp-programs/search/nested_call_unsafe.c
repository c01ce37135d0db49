// expect: unsafe
// why: every die at 4 passes pick's check (1 <= v <= 6): ten rolls of two dice give total = 80 >= 60
extern void abort(void);
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int pick(void) {
  int v = __VERIFIER_nondet_int();
  if (v < 1 || v > 6) abort();
  return v;
}
int roll2(void) { return pick() + pick(); }
int main(void) {
  int total = 0;
  for (int i = 0; i < 10; i++) {
    total = total + roll2();
  }
  if (total >= 60) reach_error();
  return 0;
}
