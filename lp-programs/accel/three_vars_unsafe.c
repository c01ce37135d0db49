// expect: unsafe
// why: z = 3x at every iteration, so z is 300000000 when x reaches 10^8 and the loop ends
void reach_error() {}
int main() {
  int x = 0, y = 0, z = 0;
  while (x < 100000000) {
    x++;
    y += 2;
    z += 3;
  }
  if (z == 300000000) reach_error();
  return 0;
}
