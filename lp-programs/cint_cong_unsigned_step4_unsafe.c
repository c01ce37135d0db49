// expect: unsafe
// why: x grows by 6 from 0, so after one step x = 6 and x % 4 == 2
extern unsigned int __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned int x = 0;
  while (__VERIFIER_nondet_uint()) {
    x += 6;
  }
  if (x % 4 != 0) {
    ERROR: ;
  }
  return 0;
}
