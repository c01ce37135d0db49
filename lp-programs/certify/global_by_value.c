// expect: safe
// A global passed by value to a procedure that changes the global in a loop: the
// parameter keeps the value at the call (p₀ = g₀), the global moves on.
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int g;
int f(int p, int unused) {
  int i;
  for (i = 0; i < 5; i++) { g = g + 2; }
  return p;
}
int main(void) {
  g = __VERIFIER_nondet_int();
  if (!(0 <= g && g <= 10)) return 0;
  int before = g;
  int r = f(g, before);
  if (!(r == before && g == before + 10)) { reach_error(); }
  return 0;
}
