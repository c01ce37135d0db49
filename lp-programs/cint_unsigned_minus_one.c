// expect: unsafe
// why: 0u - 1 wraps to 4294967295, which is > 5
void reach_error() {}
int main() {
  unsigned x = 0;
  x = x - 1;
  if (x > 5) reach_error();
  return 0;
}
