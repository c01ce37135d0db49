// expect: unsafe
// unused_first_param.c with a check one off: g1 is -77 after the call, not -76.
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int g1;
int f0(int unused, int p) {
  int i0, i1;
  for (i0 = 0; i0 < 7; i0++) {
    g1 = g1 + 1;
    for (i1 = 0; i1 < 6; i1++) { g1 -= 2; }
  }
  return p + i0;
}
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (!(-20 <= x && x <= 20)) return 0;
  int r = f0(x, 3);
  if (!(r == 10 && g1 == -76)) { reach_error(); }
  return 0;
}
