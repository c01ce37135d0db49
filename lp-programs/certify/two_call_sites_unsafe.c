// expect: unsafe
// two_call_sites.c with the second check wrong for x = 3: g = 16 there.
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
  f(x, -7);
  if (!(g < 16)) { reach_error(); }
  return 0;
}
