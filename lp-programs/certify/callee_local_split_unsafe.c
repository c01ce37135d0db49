// expect: unsafe
// callee_local_split.c with the check narrowed: y0 = 2·x0 is 2 at the end.
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int g0, g1;
int a[4];
int r0(int n) {
  if (n <= 0) return 3;
  g0 = g0 + 1;
  return r0(n - 1) + 1;
}
int f1(void) {
  int l0 = 0;
  int i1, i2, i3;
  for (i1 = 0; i1 < 2; i1++) {
    g1 = __VERIFIER_nondet_int();
    if (!(-5 <= g1 && g1 <= -2)) return 0;
  }
  if (g0 != g1) {
    for (i2 = 0; i2 < 4; i2++) {
      l0 = g0 % 5;
      r0(1);
      g0 = 3 * l0;
    }
    g1 = 3 + g0;
  } else {
    for (i3 = 0; i3 < 8; i3++) {
      g0 = __VERIFIER_nondet_int();
      if (!(9 <= g0 && g0 <= 12)) return 0;
    }
  }
  if (g1 > 17) {
    g0 = l0 + 3;
  } else {
    l0 = -1 + l0;
  }
  l0 = __VERIFIER_nondet_int();
  if (!(5 <= l0 && l0 <= 13)) return 0;
  return 3 * g0;
}
int main(void) {
  int x0, x1, y0;
  int i4, i5, i6, i7;
  x0 = __VERIFIER_nondet_int();
  if (!(-12 <= x0 && x0 <= -7)) return 0;
  x1 = __VERIFIER_nondet_int();
  if (!(4 <= x1 && x1 <= 6)) return 0;
  y0 = 0;
  for (i4 = 0; i4 < 6; i4++) {
    x0 = __VERIFIER_nondet_int();
    if (!(-8 <= x0 && x0 <= -2)) return 0;
    x0 = i4 / 3;
  }
  for (i5 = 0; i5 < 1; i5++) {
    for (i6 = 0; i6 < 5; i6++) {
      g1 = __VERIFIER_nondet_int();
      if (!(-3 <= g1 && g1 <= 7)) return 0;
      a[i5] = 7 + y0;
    }
  }
  for (i7 = 0; i7 < 4; i7++) {
    g1 = r0(3);
    a[i7] = a[i7];
  }
  g0 = g1 + 1;
  y0 = x0 + x0;
  x0 += 2;
  if (!(-66 <= y0 && y0 <= 1)) { reach_error(); }
  g0 = f1();
  x1 += 1;
  return 0;
}
