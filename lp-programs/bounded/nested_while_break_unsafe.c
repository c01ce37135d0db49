// expect: unsafe
// why: as nested_while_break.c, but the final check says fewer than 24 inner iterations, which a large input reaches (no break: 4 * 6)
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
  if (bad || s > t || t > 23 || s < 0) { ERROR: ; }
  return 0;
}
