// expect: unsafe
// why: b + b is int arithmetic on promoted _Bool values, so it is 2 when b is 1
void reach_error() {}
extern int __VERIFIER_nondet_int(void);
int main() {
  _Bool b = __VERIFIER_nondet_int();
  int k = b + b;
  if (k == 2) reach_error();
  return 0;
}
