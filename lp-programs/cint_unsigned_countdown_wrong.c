// expect: unsafe
// why: the loop ends with i == 4294967295 (0 - 1 wrapped), not with a negative i
void reach_error() {}
int main() {
  unsigned i;
  for (i = 10; i < 20; i--) {
  }
  if (i > 20) reach_error();
  return 0;
}
