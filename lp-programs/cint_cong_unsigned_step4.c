// expect: safe
// why: x starts at 0 and grows by 4 with unsigned wraparound (2^32 is a multiple of 4), so x % 4 == 0 always
extern unsigned int __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned int x = 0;
  while (__VERIFIER_nondet_uint()) {
    x += 4;
  }
  if (x % 4 != 0) {
    ERROR: ;
  }
  return 0;
}
