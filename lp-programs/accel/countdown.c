// expect: safe
// why: x counts down by 2 and c counts the steps, so x + 2c stays at the start value
// (x > 1 before each step, so x never wraps)
void reach_error() {}
int main() {
  unsigned x = 0x0ffffff1, c = 0;
  while (x > 1) {
    x -= 2;
    c++;
  }
  if (x + 2 * c != 0x0ffffff1u) reach_error();
  return 0;
}
