// expect: unsafe
// why: after 10^8 iterations y is 500000000, the value the check rejects
void reach_error() {}
int main() {
  unsigned x = 0, y = 0;
  while (x < 300000000u) {
    x += 3;
    y += 5;
  }
  if (y == 500000000u) reach_error();
  return 0;
}
