// expect: safe
// why: x + 1 = 300 fits an int, and converting it to char wraps to 44 (implementation-defined, never undefined)
// expect-wrap: safe
// expect-error: safe
// assumes: none
void reach_error() {}
extern int __VERIFIER_nondet_int(void);
int main() {
  int x = __VERIFIER_nondet_int();
  if (x != 299) return 0;
  char c = x + 1;
  if (c != 44) reach_error();
  return 0;
}
