// expect: unsafe
// why: x counts down by 2 from an odd start and ends at 1, which is odd
extern void __VERIFIER_assert(int);
int main() {
  unsigned x = 0x0ffffff1;
  while (x > 1) {
    x -= 2;
  }
  __VERIFIER_assert(!(x % 2));
  return 0;
}
