@echo off
rem The Start menu's "matchbox terminal": a command prompt in Documents where `matchbox` runs
rem (the install folder put first on this window's PATH; the system's PATH is left alone).
set "PATH=%~dp0;%PATH%"
cd /d "%USERPROFILE%\Documents"
echo matchbox is ready. A class lesson of MENACE:   matchbox class tictactoe
echo HER to watch:   matchbox watch hexapawn        Every command:   matchbox --help
