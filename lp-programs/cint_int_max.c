// expect: safe
// why: a nondet int never exceeds INT_MAX = 2147483647
void reach_error() {}
extern int __VERIFIER_nondet_int(void);
int main() {
  int x = __VERIFIER_nondet_int();
  if (x > 2147483647) reach_error();
  return 0;
}
