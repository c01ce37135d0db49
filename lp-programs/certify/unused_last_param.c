// expect: safe
// The certificate of a proof across a call: f0's second parameter is never read, so the
// tabulation keeps its value only as an entry value (p3₀ = 5); the entry condition of f0
// must still say p3 = 5 for the loop invariants that mention p3₀ to hold on entering.
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int g1;
int f0(int p2, int p3) {
  int i0 = 0, i1 = 0;
  i0 = 0;
  while (i0 < 7) {
    g1 = g1 + 1;
    for (i1 = 0; i1 < 6; i1++) { g1 -= 2; }
    i0 = i0 + 1;
  }
  return p2 + i0;
}
int main(void) {
  int x7 = __VERIFIER_nondet_int();
  if (!(-20 <= x7 && x7 <= 20)) return 0;
  x7 = x7 + 0;
  if (!((g1 - 3 * x7) % 3 == 0)) { reach_error(); }
  f0(g1, 5);
  return 0;
}
