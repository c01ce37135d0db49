// expect: unsafe
// why: with x >= 6 every innermost iteration adds 1 (j + k <= 5): s = 24
extern int __VERIFIER_nondet_int(void);
int main() {
  int i, j, k, s = 0, x;
  x = __VERIFIER_nondet_int();
  for (i = 0; i < 2; i++) {
    for (j = 0; j < 3; j++) {
      for (k = 0; k < 4; k++) {
        if (x > j + k) { s = s + 1; } else { s = s + 2; }
      }
    }
  }
  if (s < 25 || s > 48) { ERROR: ; }
  return 0;
}
