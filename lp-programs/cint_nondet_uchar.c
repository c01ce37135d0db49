// expect: safe
// why: __VERIFIER_nondet_uchar returns a value in 0..255, and the sum of two fits an int
void reach_error() {}
extern unsigned char __VERIFIER_nondet_uchar(void);
int main() {
  unsigned char a = __VERIFIER_nondet_uchar();
  unsigned char b = __VERIFIER_nondet_uchar();
  int s = a + b;
  if (s > 510 || s < 0) reach_error();
  return 0;
}
