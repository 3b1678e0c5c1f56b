"""The import page's form: one file, bounded by ``MAX_FILE_BYTES`` before it is stored."""

from __future__ import annotations

from typing import Any

from django import forms

from core.uploads import UploadBound
from exchange.limits import MAX_FILE_BYTES

MEGABYTE = 1024 * 1024
EXPORT_UPLOAD = UploadBound(MAX_FILE_BYTES, "a campaign export")


class ImportForm(forms.Form):
    file = forms.FileField(
        label="Campaign export (JSON)",
        help_text=f"A file made by a campaign's Export, at most {MAX_FILE_BYTES // MEGABYTE} MB.",
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size is not None and upload.size > MAX_FILE_BYTES:
            raise forms.ValidationError(
                f"An export is at most {MAX_FILE_BYTES // MEGABYTE} MB (this one is "
                f"{upload.size / MEGABYTE:,.1f} MB)"
            )
        return upload
