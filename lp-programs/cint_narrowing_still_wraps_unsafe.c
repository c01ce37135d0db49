// expect: unsafe
// why: x + 1 = 300 converted to char is 44 under every setting: a conversion is not an overflow
// expect-wrap: unsafe
// expect-error: unsafe
void reach_error() {}
extern int __VERIFIER_nondet_int(void);
int main() {
  int x = __VERIFIER_nondet_int();
  if (x != 299) return 0;
  char c = x + 1;
  if (c == 44) reach_error();
  return 0;
}
