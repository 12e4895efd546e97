#!/bin/sh
# Makes the media-reading fixtures in test/fixtures/media/ (see READING.md there):
#   transfer-receipt.png  a Nigerian bank transfer receipt, as a customer screenshots it (ImageMagick + DejaVu)
#   order-invoice.pdf     a two-page invoice with real text in it (PostScript written here, then ghostscript's ps2pdf)
#   order-invoice-locked.pdf  the same invoice, encrypted with a user password
# Needs: convert (imagemagick), fonts-dejavu-core, ps2pdf (ghostscript). Run from anywhere; tests never run it.
set -eu

out="$(cd "$(dirname "$0")/.." && pwd)/test/fixtures/media"
mkdir -p "$out"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

font=DejaVu-Sans
bold=DejaVu-Sans-Bold

# The receipt: a green header, a tick, the amount, then label/value rows as banking apps lay them out.
convert -size 480x760 xc:white \
  -fill '#1b7f3b' -draw 'rectangle 0,0 480,120' \
  -fill white -font "$bold" -pointsize 26 -annotate +24+52 'GTBank' \
  -font "$font" -pointsize 15 -annotate +24+86 'Guaranty Trust Bank' \
  -fill '#1b7f3b' -draw 'circle 240,190 240,225' \
  -stroke white -strokewidth 6 -draw 'line 222,192 236,206' -draw 'line 236,206 260,178' -stroke none \
  -fill '#1b7f3b' -font "$bold" -pointsize 24 -gravity north -annotate +0+245 'Transfer Successful' \
  -fill black -font "$bold" -pointsize 36 -annotate +0+290 '₦15,000.00' \
  -fill '#555555' -font "$font" -pointsize 14 -annotate +0+345 '14 Mar 2025, 09:42 AM' \
  -gravity northwest -fill '#dddddd' -draw 'line 24,385 456,385' \
  -fill '#777777' -font "$font" -pointsize 14 \
  -annotate +24+405 'Sender' -annotate +24+455 'Beneficiary' -annotate +24+505 'Beneficiary Bank' \
  -annotate +24+555 'Account Number' -annotate +24+605 'Transaction Reference' -annotate +24+655 'Narration' \
  -fill black -font "$bold" -pointsize 15 \
  -annotate +24+425 'ADEBAYO CHUKWUEMEKA OKAFOR' -annotate +24+475 'MAMA NKECHI FOODS LTD' \
  -annotate +24+525 'Access Bank' -annotate +24+575 '0123456789' \
  -annotate +24+625 '000013250314094211223344556' -annotate +24+675 'Payment for order ORD-2291' \
  -fill '#dddddd' -draw 'line 24,715 456,715' \
  -fill '#999999' -font "$font" -pointsize 12 -annotate +24+730 'Generated on GTWorld. Thank you for banking with us.' \
  -strip -colors 32 PNG8:"$out/transfer-receipt.png"

# The invoice: PostScript with text in Helvetica (ghostscript embeds a metric-compatible font), two pages.
cat >"$work/invoice.ps" <<'PS'
%!PS-Adobe-3.0
%%Pages: 2
%%BoundingBox: 0 0 595 842
%%EndComments
/h1 { /Helvetica-Bold findfont 20 scalefont setfont } def
/body { /Helvetica findfont 12 scalefont setfont } def
%%Page: 1 1
h1 72 770 moveto (Mama Nkechi Foods Ltd - Invoice INV-2291) show
body
72 740 moveto (Order ORD-2291, issued 14 March 2025) show
72 722 moveto (Bill to: Adebayo Okafor, 12 Allen Avenue, Ikeja, Lagos) show
72 690 moveto (Item                         Qty     Price (NGN)) show
72 672 moveto (Jollof rice party tray          1       9,500.00) show
72 654 moveto (Peppered chicken (6 pieces)     1       4,000.00) show
72 636 moveto (Delivery, Ikeja                 1       1,500.00) show
72 604 moveto (Total due: NGN 15,000.00) show
showpage
%%Page: 2 2
h1 72 770 moveto (Payment and delivery terms) show
body
72 740 moveto (Pay by bank transfer to GTBank account 0123456789, Mama Nkechi Foods Ltd.) show
72 722 moveto (Quote the order number ORD-2291 as the narration.) show
72 704 moveto (Delivery within 48 hours of payment, Monday to Saturday.) show
72 686 moveto (Refunds for cancelled orders are paid within 5 working days.) show
showpage
%%EOF
PS
ps2pdf -dPDFSETTINGS=/ebook "$work/invoice.ps" "$out/order-invoice.pdf"

# The same invoice behind a user password: what a bank statement often is. Readers must refuse it, not crash.
gs -q -dSAFER -dBATCH -dNOPAUSE -sDEVICE=pdfwrite -dPDFSETTINGS=/ebook \
  -sOwnerPassword=owner-secret -sUserPassword=customer-secret -dEncryptionR=3 -dKeyLength=128 \
  -sOutputFile="$out/order-invoice-locked.pdf" "$work/invoice.ps"

ls -l "$out/transfer-receipt.png" "$out/order-invoice.pdf" "$out/order-invoice-locked.pdf"
