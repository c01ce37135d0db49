// expect: safe
// why: each of 3 outer iterations fills a[0..3] with values in [0, 2] by the input (x % 3 is in [-2, 2], so the branch keeps 0..2), then adds them up; the total stays in [0, 24]
// bmc-assumes: none
extern int __VERIFIER_nondet_int(void);
int main() {
  int a[4];
  int i, j, s = 0, x;
  x = __VERIFIER_nondet_int();
  if (x < -20 || x > 20) return 0;
  for (i = 0; i < 3; i++) {
    for (j = 0; j < 4; j++) {
      int r = (x + i + j) % 3;
      if (r < 0) { a[j] = -r; } else { a[j] = r; }
    }
    for (j = 0; j < 4; j++) {
      s = s + a[j];
    }
  }
  if (s < 0 || s > 24) { ERROR: ; }
  return 0;
}
