// expect: unsafe
// why: char c = 300 stores 44 (300 mod 256)
void reach_error() {}
int main() {
  char c = 300;
  if (c == 44) reach_error();
  return 0;
}
