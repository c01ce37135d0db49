// expect: safe
// why: s == 2 * i is kept by every iteration, so the assertion holds all the way
void reach_error() {}
void __VERIFIER_assert(int c) { if (!c) reach_error(); }
int main() {
  int i = 0;
  int s = 0;
  while (i < 100000) {
    i++;
    s = s + 2;
  }
  __VERIFIER_assert(s == 2 * i);
  return 0;
}
