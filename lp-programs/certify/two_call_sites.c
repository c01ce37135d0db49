// expect: safe
// One procedure with a loop called from two sites with different arguments (one of them
// unread): its entry condition covers both calls, its summary serves both.
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int g;
int f(int p, int q) {
  int i;
  for (i = 0; i < 4; i++) { g = g + p; }
  return i;
}
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (!(1 <= x && x <= 3)) return 0;
  f(1, 7);
  if (!(g == 4)) { reach_error(); }
  int r = f(x, -7);
  if (!(r == 4 && g == 4 + 4 * x)) { reach_error(); }
  return 0;
}
