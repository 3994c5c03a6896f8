/* A stand-in for Windows' bcryptprimitives.dll, which Wine 8.0 lacks. Rust >= 1.78 programs (the extension
 * modules of pydantic-core, jiter, rpds-py) import ProcessPrng from it; without it they fail to load with
 * "DLL load failed ... Module not found". ProcessPrng fills a buffer with random bytes and always succeeds on
 * Windows; here it asks RtlGenRandom (advapi32's SystemFunction036), which Wine has. Wine 9.0 and later ship
 * their own bcryptprimitives.dll, and setup then leaves this one out. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length); /* RtlGenRandom */

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
    while (len) {
        ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
        if (!SystemFunction036(data, n))
            return FALSE;
        data += n;
        len -= n;
    }
    return TRUE;
}
