// expect: safe
// why: x and y grow by 3 and 5 together, so 5x = 3y; the loop ends with x >= 300000000,
// so y >= 500000000
void reach_error() {}
int main() {
  unsigned x = 0, y = 0;
  while (x < 300000000u) {
    x += 3;
    y += 5;
  }
  if (y < 500000000u) reach_error();
  return 0;
}
