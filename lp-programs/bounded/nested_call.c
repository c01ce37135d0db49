// expect: safe
// why: the inner loop is in a callee, entered afresh on each of the 3 calls: 5 iterations each, adding 1 or 2
// bmc-assumes: none
extern int __VERIFIER_nondet_int(void);
int add(int s, int x) {
  int j;
  for (j = 0; j < 5; j++) { if (x > j) { s = s + 1; } else { s = s + 2; } }
  return s;
}
int main() {
  int i, s = 0, x;
  x = __VERIFIER_nondet_int();
  for (i = 0; i < 3; i++) { s = add(s, x); }
  if (s < 15 || s > 30) { ERROR: ; }
  return 0;
}
