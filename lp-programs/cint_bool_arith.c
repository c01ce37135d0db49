// expect: safe
// why: storing b + b back into a _Bool gives 1 for 2, never 2
void reach_error() {}
extern int __VERIFIER_nondet_int(void);
int main() {
  _Bool b = __VERIFIER_nondet_int();
  _Bool c = b + b;
  int k = c;
  if (k == 2 || (b && !c)) reach_error();
  return 0;
}
