// expect: safe
// why: n is at most 49, so the recursion stops at depth n < 50
void reach_error() {}
extern int __VERIFIER_nondet_int(void);
int down(int n, int depth) {
  if (depth == 50) reach_error();
  if (n <= 0) return depth;
  return down(n - 1, depth + 1);
}
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 49) return 0;
  down(n, 0);
  return 0;
}
