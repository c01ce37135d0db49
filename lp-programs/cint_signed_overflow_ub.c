// expect: unknown
// why: the error needs INT_MAX + 1, a signed overflow: undefined behaviour in C, so lpmc
// answers UNKNOWN and names the overflow (with --check-overflow the overflow is the error)
void reach_error() {}
extern int __VERIFIER_nondet_int(void);
int main() {
  int x = __VERIFIER_nondet_int();
  if (x < 2147483647) return 0;
  x = x + 1;
  if (x < 0) reach_error();
  return 0;
}
