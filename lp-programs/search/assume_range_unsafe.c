// expect: unsafe
// why: y = 50 in each of the 15 iterations satisfies the assumption 0 < y < 100 and makes s = 750 > 600
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
void reach_error(void) {}
int main(void) {
  int s = 0;
  for (int i = 0; i < 15; i++) {
    int y = __VERIFIER_nondet_int();
    __VERIFIER_assume(0 < y && y < 100);
    s = s + y;
  }
  if (s > 600) reach_error();
  return 0;
}
