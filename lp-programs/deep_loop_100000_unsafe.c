// expect: unsafe
// why: the assertion fails in iteration 100000, when i reaches 100000 (any input)
void reach_error() {}
void __VERIFIER_assert(int c) { if (!c) reach_error(); }
int main() {
  int i = 0;
  int s = 0;
  while (i < 200000) {
    i++;
    s = s + 2;
    __VERIFIER_assert(i != 100000);
  }
  return 0;
}
