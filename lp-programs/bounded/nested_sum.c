// expect: safe
// why: 15 inner iterations in all, each adding 1 (x > j) or 2: 15 <= s <= 30; each entry into the inner loop runs it 5 times
// bmc-assumes: none
extern int __VERIFIER_nondet_int(void);
int main() {
  int i, j, s = 0, x;
  x = __VERIFIER_nondet_int();
  for (i = 0; i < 3; i++) {
    for (j = 0; j < 5; j++) { if (x > j) { s = s + 1; } else { s = s + 2; } }
  }
  if (s < 15 || s > 30) { ERROR: ; }
  return 0;
}
