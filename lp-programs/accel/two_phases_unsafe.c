// expect: unsafe
// why: x is 150000000 when the loop ends (2 per iteration in the first half, 1 in the second)
void reach_error() {}
int main() {
  unsigned i = 0, x = 0;
  while (i < 100000000u) {
    if (i < 50000000u) {
      x += 2;
    } else {
      x += 1;
    }
    i++;
  }
  if (x == 150000000u) reach_error();
  return 0;
}
