/*
 * ProcessPrng for Wine 8.0, which lacks it. Go 1.22 and later load
 * ProcessPrng from bcryptprimitives.dll in system32 when a program starts,
 * and stop at once without it. This stand-in fills the buffer from
 * RtlGenRandom (advapi32's SystemFunction036), the system's own random
 * source, in pieces it accepts. Used only to run tests under Wine
 * (make test-windows); never shipped.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG piece = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, piece))
            return FALSE;
        data += piece;
        length -= piece;
    }
    return TRUE;
}
