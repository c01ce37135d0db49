// expect: unsafe
// why: none of these is a constant, though each has one constant assignment: x is
// declared without initialiser (uninitialised when c is 0), g is assigned in a callee,
// and m is incremented; constant propagation must leave them alone
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int g = 1;
void set() { g = 2; }
int main() {
  int c = __VERIFIER_nondet_int();
  int x;
  if (c) x = 5;
  int m = 0;
  if (__VERIFIER_nondet_int()) m++;
  if (__VERIFIER_nondet_int()) set();
  if (x != 5 && g == 2 && m == 1) reach_error();
  return 0;
}
