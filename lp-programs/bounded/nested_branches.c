// expect: safe
// why: each of the 12 inner iterations adds 1, 2 or 3 to s (by the input and the counters) and 1 to t, so 12 <= s <= 36 and t = 12
// bmc-assumes: 18, 20
extern int __VERIFIER_nondet_int(void);
int main() {
  int i, j, s = 0, t = 0, x, y;
  x = __VERIFIER_nondet_int();
  y = __VERIFIER_nondet_int();
  for (i = 0; i < 4; i++) {
    for (j = 0; j < 3; j++) {
      if (x > i) {
        s = s + 1;
      } else if (y > j) {
        s = s + 2;
      } else {
        s = s + 3;
      }
      if (x + y > i + j) { t = t + 1; } else { t = t + 1; }
    }
    if (i % 2 == 0) { y = y - 1; }
  }
  if (s < 12 || s > 36 || t != 12) { ERROR: ; }
  return 0;
}
