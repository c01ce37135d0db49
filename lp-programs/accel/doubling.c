// expect: safe
// why: x doubles 20 times (not a translation, so not accelerated): 2^20 = 1048576
void reach_error() {}
int main() {
  unsigned x = 1, i = 0;
  while (i < 20u) {
    x = 2 * x;
    i++;
  }
  if (x != 1048576u) reach_error();
  return 0;
}
