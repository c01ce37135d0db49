// expect: safe
// why: x, y and z grow by 1, 2 and 3, so z = x + y at every iteration (x ends at 10^8)
void reach_error() {}
int main() {
  int x = 0, y = 0, z = 0;
  while (x < 100000000) {
    x++;
    y += 2;
    z += 3;
  }
  if (z != x + y) reach_error();
  return 0;
}
