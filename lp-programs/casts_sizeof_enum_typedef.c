// expect: safe
// why: ILP32 sizes (int 4, char 1, u32 4, arr 12 bytes of 3 cells), enum NEXT == 6, (_Bool)7 == 1
typedef unsigned int u32;
typedef long long i64;
enum mode { OFF, ON = 5, NEXT };
int main(void) {
  u32 a = (u32)3;
  i64 b = (i64)a + 1;
  int s = sizeof(int) + sizeof(char) + sizeof a;
  _Bool t = (_Bool)7;
  int arr[3];
  int n = sizeof(arr) / sizeof(arr[0]);
  enum mode m = ON;
  if (NEXT != 6 || s != 9 || t != 1 || n != 3 || b != 4 || m != 5 || OFF != 0)
    reach_error();
  return 0;
}
