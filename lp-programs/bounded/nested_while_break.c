// expect: safe
// why: the inner while loop runs at most 6 times per entry (it breaks early when the input says so), the outer one 4 times, and the counters it adds stay in [0, 24]; every else-if branch adds 1, so t counts the inner iterations exactly
// bmc-assumes: none
extern int __VERIFIER_nondet_int(void);
int main() {
  int i, j, s = 0, t = 0, bad = 0, x, y;
  x = __VERIFIER_nondet_int();
  y = __VERIFIER_nondet_int();
  if (x < -20 || x > 20 || y < -20 || y > 20) return 0;
  for (i = 0; i < 4; i++) {
    j = 0;
    while (j < 6) {
      if (j > x + i) break;
      if (y % 2 == 0) { s = s + 1; }
      else if (y > i) { s = s + 1; }
      else if (j % 3 == 1) { s = s + 1; }
      t = t + 1;
      j = j + 1;
    }
    if (j > 6) { bad = 1; }
  }
  if (bad || s > t || t > 24 || s < 0) { ERROR: ; }
  return 0;
}
