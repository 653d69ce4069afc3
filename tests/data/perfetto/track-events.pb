
@èPâ
d2app
@èPâ"
de*main(

@èPâ"df*worker(

,@ÐPZHPb	outer	innerhÚZX
@ÄPZHPh
@¨PZ	Hºmarkh
@¸PZHh
@ PZHh
@˜PZHXºwork
@äPZHX
"@ˆ'PZHPXbafter-clearh
@ü*PZHXh